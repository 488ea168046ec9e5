import tempfile
import unittest
from pathlib import Path

import storage
import todo


class TodoTest(unittest.TestCase):
    def test_add_then_save_and_load(self):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "tasks.json"
            tasks = storage.load(path)
            todo.add(tasks, "Buy milk")
            storage.save(tasks, path)
            self.assertEqual(storage.load(path), [{"title": "Buy milk", "done": False}])


if __name__ == "__main__":
    unittest.main()
