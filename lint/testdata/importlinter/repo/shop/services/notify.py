def send():
    from shop.api import views
    return views
