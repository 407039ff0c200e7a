from shop.plugins.alpha import ui
from shop.plugins.beta import logic as other
