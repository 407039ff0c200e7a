import shop.utils.net
