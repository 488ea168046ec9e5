"""A tiny inventory: items, their stock and their price."""

from dataclasses import dataclass


@dataclass
class Item:
    name: str
    price: float
    stock: int = 0


def total_value(items):
    total = 0
    for item in items:
        total = total + item.price * item.stock
    return total


def restock(item, amount):
    item.stock = item.stock + amount
    return item


def find(items, name):
    for item in items:
        if item.name == name:
            return item
    return None
