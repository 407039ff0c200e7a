from shop.plugins.alpha import extra
