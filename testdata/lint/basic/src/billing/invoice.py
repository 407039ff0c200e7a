from src.auth import tokens
