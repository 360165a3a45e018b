"""contrascan: the sidecar — models, keys, policy, Weaviate store, service and CLI."""
