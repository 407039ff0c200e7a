from shop.db.models import Order
