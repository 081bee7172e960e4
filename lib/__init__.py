"""The companion's library: `lib.companion` (infrastructure shared by every paper) and one
subpackage of tested kernels per paper (`lib.<paper>`). Nothing here runs on import."""
