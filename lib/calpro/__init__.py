"""CalPro (calpro): prior-aware evidential conformal prediction on synthetic residue chains with a
disorder shift (spec calpro.md)."""
