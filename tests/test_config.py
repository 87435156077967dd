"""The built-in configs (configs/*.cfg): every parameter names its source.

Issue 21, item 4: each `key = value` line of a built-in config carries a
comment naming where its value comes from -- a seed paper's table, a vendor
document, a microbenchmark paper or measurement, GPGPU-Sim's validated
configs -- or saying "estimate" (and from what).  The comment sits on the key's
line, or, where the value leaves no room, on the comment line right below it
(indented, `#` aligned under the comments: a continuation).  `include =` lines
name another config and need none.  Needs no binary.
"""
import re

from rfsim_test import ROOT

CONFIGS = sorted((ROOT / "configs").glob("*.cfg"))
KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*([^#]*?)\s*(#.*)?$")


def unsourced(path):
    """(line number, line) of each key line of `path` without a source comment."""
    lines = path.read_text().splitlines()
    missing = []
    for i, line in enumerate(lines):
        m = KEY.match(line)
        if not m or m.group(1) == "include":
            continue
        comment = (m.group(3) or "").lstrip("#").strip()
        if comment:
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if re.match(r"^\s+#\s*\S", nxt):     # a continuation line carries it
            continue
        missing.append((i + 1, line))
    return missing


def test_builtin_configs_exist():
    names = {p.stem for p in CONFIGS}
    assert {"fermi-gtx480", "maxwell-ltrf", "gebhart-isca11", "hopper-h100"} <= names


def test_every_builtin_config_key_has_a_source_comment():
    """Every key line of every built-in config names its source (or says
    "estimate") in a comment on the line or a continuation below it."""
    bad = [f"{p.name}:{n}: {line}" for p in CONFIGS for n, line in unsourced(p)]
    assert not bad, "key lines without a source comment:\n" + "\n".join(bad)


def test_the_check_catches_a_bare_key_line(tmp_path):
    """The check above is not vacuous: a bare key line fails it, a commented
    one, one continued below and an include pass."""
    cfg = tmp_path / "x.cfg"
    cfg.write_text("# header\n"
                   "include = fermi-gtx480\n"
                   "sm.count = 2      # estimate\n"
                   "sm.registers = 4096\n"
                   "                  # continuation: the source of sm.registers\n"
                   "l1.bytes = 16K\n"
                   "l2.bytes = 1M     #\n"
                   "# a block comment is not a continuation\n")
    assert [n for n, _ in unsourced(cfg)] == [6, 7]
