"""Prints a stock report."""

from inventory import Item, total_value


def format_line(item):
    return item.name + ": " + str(item.stock) + " at " + str(item.price)


def report(items):
    lines = [format_line(item) for item in items]
    lines.append("total: " + str(total_value(items)))
    return "\n".join(lines)


if __name__ == "__main__":
    stock = [Item("bolt", 0.25, 400), Item("nut", 0.1, 1000)]
    print(report(stock))
