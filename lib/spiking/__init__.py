"""Kernels the spiking papers share (ttfs_snn, ann2snn_cka): the integrate-and-fire
simulation, the surrogate spike, spike counting. Not a paper (no notebooks/spiking/): a stage
whose paper imports it depends on it (lib.companion.generate follows the imports)."""
