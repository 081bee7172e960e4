"""ann2snn_cka: High-Fidelity ANN-to-SNN Conversion via Closed-Loop CKA Distillation
(Li et al., ICML 2026)."""
