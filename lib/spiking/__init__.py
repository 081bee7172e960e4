"""Kernels the spiking papers share (ttfs_snn, ann2snn_cka, spike_htr): the integrate-and-fire
simulations (IF, LIF), the surrogate spike, spike counting. Not a paper (no notebooks/spiking/): a
stage whose paper imports it depends on it (lib.companion.generate follows the imports)."""
