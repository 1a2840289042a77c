# A grant token for an access token and the refresh
# token (grant_type=authorization_code)
curl -X POST "$AUTH_URL/oauth/v2/token" \
  -d client_id="$CLIENT_ID" \
  -d client_secret="$CLIENT_SECRET" \
  -d grant_type=authorization_code \
  -d code="$GRANT_CODE"

# A new access token from the refresh token
# (grant_type=refresh_token)
curl -X POST "$AUTH_URL/oauth/v2/token" \
  -d client_id="$CLIENT_ID" \
  -d client_secret="$CLIENT_SECRET" \
  -d grant_type=refresh_token \
  -d refresh_token="$REFRESH_TOKEN"
