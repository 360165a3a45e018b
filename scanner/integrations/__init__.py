"""Framework wrappers over :class:`scanner.sources.service.AttachedSource`, each behind an
optional extra: ``contrascan[langchain]`` (:mod:`scanner.integrations.langchain`),
``contrascan[llamaindex]`` (:mod:`scanner.integrations.llamaindex`), ``contrascan[mem0]``
(:mod:`scanner.integrations.mem0`)."""
