"""Scenario and study dictionaries written as YAML text for the scenario
loader (block mappings, flow sequences), and override values as YAML."""
import math
import numbers


def scalar(value):
    """One value as YAML: numbers, booleans, strings (double-quoted), and
    sequences in flow style ([1, 2], [[0, 1], [1, 2]])."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        v = float(value)
        if math.isnan(v):
            return ".nan"
        if math.isinf(v):
            return ".inf" if v > 0 else "-.inf"
        return repr(v)
    if isinstance(value, str):
        out = ['"']
        for ch in value:
            if ch in '"\\':
                out.append("\\" + ch)
            elif ord(ch) < 0x20:
                out.append("\\x%02x" % ord(ch))
            else:
                out.append(ch)
        out.append('"')
        return "".join(out)
    if hasattr(value, "tolist"):  # numpy arrays and scalars
        return scalar(value.tolist())
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(scalar(v) for v in value) + "]"
    raise TypeError("mbdae: cannot write %r as a scenario value" % (value,))


def _block(d, indent, lines):
    pad = "  " * indent
    for key, value in d.items():
        if not isinstance(key, str):
            raise TypeError("mbdae: scenario keys are strings, not %r" % (key,))
        if isinstance(value, dict):
            lines.append("%s%s:" % (pad, key))
            _block(value, indent + 1, lines)
        elif isinstance(value, (list, tuple)) and value and all(isinstance(v, dict) for v in value):
            lines.append("%s%s:" % (pad, key))
            for item in value:
                sub = []
                _block(item, indent + 2, sub)
                first = sub[0].lstrip()
                lines.append("%s  - %s" % (pad, first))
                lines.extend(sub[1:])
        else:
            lines.append("%s%s: %s" % (pad, key, scalar(value)))


def dump(d):
    """A dictionary as YAML text (one key per line, so the loader's FILE:LINE
    messages point at the key)."""
    if not isinstance(d, dict):
        raise TypeError("mbdae: a scenario is a dict (or a file name), not %r" % (type(d),))
    lines = []
    _block(d, 0, lines)
    return "\n".join(lines) + "\n"


def override(key, value):
    """A KEY=VALUE override string; description and output.dir are literal."""
    if isinstance(value, str) and (key in ("description", "output.dir") or
                                   not value.strip().startswith(('"', "'"))):
        return "%s=%s" % (key, value)
    return "%s=%s" % (key, scalar(value))
