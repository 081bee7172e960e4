"""GraphP-FL (ICML 2026) as a miniature: the Fisher-weighted elastic alignment (FRPA) in closed
form, and federated SBM clients with topological noise and client-side topology rectification."""
