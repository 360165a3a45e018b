"""Weaviate store: the only package that imports weaviate."""
