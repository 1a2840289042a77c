curl -X POST "$AUTH_URL/oauth/v2/token/revoke" \
  -d token="$REFRESH_TOKEN"
