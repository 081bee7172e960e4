"""The companion's library: shared plumbing (paths, params, claims, plotting, runner) and one
subpackage of tested kernels per paper. Nothing here runs on import."""
