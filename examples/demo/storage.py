"""Load and save the task list as JSON."""
import json
from pathlib import Path

DEFAULT_PATH = Path.home() / ".todo.json"


def load(path=DEFAULT_PATH):
    """Return the saved tasks, or an empty list when there are none yet."""
    if not path.exists():
        return []
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def save(tasks, path=DEFAULT_PATH):
    """Write the tasks, replacing what was saved before."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(tasks, f, indent=2)
