"""Scoundrel and Scoundrel for Two: the rules, the search core and everything built on it."""
