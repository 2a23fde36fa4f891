"""Statistics as tables: pandas DataFrames when pandas is installed, time-series CSV files as numpy."""
import csv

import numpy as np


def _pandas():
    try:
        import pandas
    except ImportError as e:
        raise ImportError("gtlm: DataFrames need pandas (Debian: python3-pandas)") from e
    return pandas


def _rows(tree, prefix=""):
    if isinstance(tree, dict) and "value" in tree:
        yield prefix, tree["value"], tree.get("unit", ""), tree.get("description", "")
    elif isinstance(tree, dict):
        for k, v in tree.items():
            yield from _rows(v, prefix + "." + k if prefix else k)
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            yield from _rows(v, "%s[%d]" % (prefix, i))


def stats_frame(tree):
    """A JSON statistics tree as a DataFrame indexed by path: value, unit, description."""
    pd = _pandas()
    return pd.DataFrame(list(_rows(tree)), columns=["name", "value", "unit", "description"]).set_index("name")


def read_timeseries(path, unit="gpu"):
    """The -stats_timeseries_file CSV of a run as {column: numpy array}, rows of one unit ("gpu" for
    the whole GPU, "sm0", ...). Numeric columns become float arrays."""
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("unit") == unit]
    out = {}
    for key in (rows[0].keys() if rows else []):
        vals = [r[key] for r in rows]
        try:
            out[key] = np.array([float(v) for v in vals])
        except ValueError:
            out[key] = np.array(vals)
    return out


def read_csv(path):
    """A results.csv (gtlm sweep) as a list of dicts, or a DataFrame when pandas is installed."""
    try:
        return _pandas().read_csv(path)
    except ImportError:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))
