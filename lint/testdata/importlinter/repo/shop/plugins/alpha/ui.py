from . import logic
