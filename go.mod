module github.com/svc-feedback/svc

go 1.24.0

require github.com/google/go-cmp v0.7.0

require (
	code.dny.dev/ssrf v0.3.0
	github.com/hashicorp/go-retryablehttp v0.7.8
	github.com/mattn/go-sqlite3 v1.14.53
	github.com/standard-webhooks/standard-webhooks/libraries v0.0.1
	golang.org/x/time v0.14.0
)

require github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
