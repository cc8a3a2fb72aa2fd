// A self-signed certificate for localhost and 127.0.0.1 (valid for a century), for tests that need TLS: some clients
// (the official SDK's realtime WebSocket client among them) only speak wss://. Test material only; it guards nothing.
export const localhostCertificate = {
  cert: `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIUGiAS0hv6Usi4Wv0+XeappEe6sZwwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNzEzMTYzNloYDzIxMjYxMTAz
MTMxNjM2WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAASCHmvnJ4LGdqdi06/Dws5Q2h61W76e7++q+wIMM8G7YQjeG54ZWES6
CZx9Go1G2h8SZRY/bHVOF0s/XiPTPGN7o28wbTAdBgNVHQ4EFgQUO8jf7kYyU/hn
yIR6bPJeVNkYsWcwHwYDVR0jBBgwFoAUO8jf7kYyU/hnyIR6bPJeVNkYsWcwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDSAAwRQIgf7A/T9K7WRvWZgf3L2R7g9yJs5RqrA9hmzfS9Ws7JVQCIQCn
7Hp7uxBEL1jl8AQtjyMmVF5DG2XNZRUhTatu43o5JA==
-----END CERTIFICATE-----\n`,
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgUh+ltsJUK1T6xlvL
sIq2G+8UYW69mTagyTwTrWNbv4ChRANCAASCHmvnJ4LGdqdi06/Dws5Q2h61W76e
7++q+wIMM8G7YQjeG54ZWES6CZx9Go1G2h8SZRY/bHVOF0s/XiPTPGN7
-----END PRIVATE KEY-----\n`,
};
