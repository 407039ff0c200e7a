from shop.plugins.beta.logic import run
