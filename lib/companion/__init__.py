"""The companion's infrastructure, apart from every paper's kernels: paths, parameters, the claims
ledger, the notebook opener, plotting style, the runner, the smoke copy, the generated files (the
dvc.yaml and params.yaml files, the tables of the README and the guide), the report and benchmark
timing. Nothing runs on import."""
