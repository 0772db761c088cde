import horizon_plugin_pytorch as _hpp

_KNOWN = {"nash-e", "nash-m", "nash-p", "nash-h", "nash-b"}


def set_march(march):
    if march not in _KNOWN:
        raise ValueError("unknown march %r" % (march,))
    _hpp.MARCH.append(march)
