"""Runs every ```python block of docs/python.md in order, in one namespace, from a scratch directory.
usage: run_tutorial.py docs/python.md"""
import os
import re
import sys
import tempfile

path = os.path.abspath(sys.argv[1])
with open(path) as f:
    blocks = re.findall(r"^```python\n(.*?)^```", f.read(), re.S | re.M)
if not blocks:
    sys.exit("run_tutorial: no python blocks in " + path)
os.chdir(tempfile.mkdtemp(prefix="gtlm-tutorial-"))
namespace = {"__name__": "__tutorial__"}
for i, code in enumerate(blocks, 1):
    print("--- block %d" % i, flush=True)
    exec(compile(code, "%s (block %d)" % (path, i), "exec"), namespace)
if not os.path.getsize("bfs_ipc.png"):
    sys.exit("run_tutorial: the plot is empty")
print("run_tutorial: %d blocks ran" % len(blocks))
