"""CompleteP for RL (Kumar, Lee, Bordelon, Pehlevan, ICML 2026) as a miniature: the coordinate
check of CompleteP against NTK under Adam (one-step update sizes across width and depth)."""
