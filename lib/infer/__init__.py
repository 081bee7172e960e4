"""INFER miniature (Takawale, Roy, Brown, arXiv 2510.07442): Kramers-Kronig causality of
frequency responses, image-source cabin responses, time- against frequency-domain fields."""
