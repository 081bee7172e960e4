"""MUSA-PINN miniature: weak-form (control-volume) against strong-form PINNs in 2-D."""
