"""The HTTP client, one seam a module: url (validation, credentials, the default port),
deadline (the total deadline over a fetch's sockets, each connected under the policy),
framing (a strict, bounded head), decompress (capped decoders), proxy_env (proxies from
the environment) and client (fetch: redirects, caps, failures mapped to exit codes)."""
