import shop.db.models
