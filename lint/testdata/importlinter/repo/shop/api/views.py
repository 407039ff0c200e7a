from shop.services import orders
from . import schemas
