"""Every read of Gupai Club beyond a plain get, one module per domain. Plain data out (dicts,
lists, model objects), no writes."""
