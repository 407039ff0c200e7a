import src.billing.invoice
