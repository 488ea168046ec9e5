"""A tiny command-line task list: `todo.py add Buy milk`, `todo.py` to list."""
import sys

import storage


def add(tasks, title):
    tasks.append({"title": title, "done": False})


def show(tasks):
    if not tasks:
        print("Nothing to do.")
        return
    for number, task in enumerate(tasks, start=1):
        mark = "x" if task["done"] else " "
        print(f"{number}. [{mark}] {task['title']}")


def main(argv):
    tasks = storage.load()
    if len(argv) >= 2 and argv[0] == "add":
        add(tasks, " ".join(argv[1:]))
        storage.save(tasks)
    else:
        show(tasks)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
