"""The sidecar's routes, one router per concern; :func:`scanner.api.app.create_app` mounts
them (the ``/v1`` ones behind the API key)."""
