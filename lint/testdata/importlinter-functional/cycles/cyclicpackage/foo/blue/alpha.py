from .bravo import three

a = three
