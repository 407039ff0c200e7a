from shop.api.schemas import dump
