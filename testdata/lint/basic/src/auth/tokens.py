from src.billing import invoice
import src.cli.main
