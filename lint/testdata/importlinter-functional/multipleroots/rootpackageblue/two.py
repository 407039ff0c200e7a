from .one.alpha import BAR
