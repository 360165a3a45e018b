"""``python -m scanner.pair_judge``: build and cache the default pair judge (``make setup``)."""

from scanner.pair_judge.training import ensure_judge

if __name__ == "__main__":
    print(ensure_judge())
