from shop.utils import helpers
import sqlalchemy
