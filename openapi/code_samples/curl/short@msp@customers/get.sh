# The customers of your MSP account (no cookie)
curl "$API_ROOT/short/msp/customers" \
  -H "Authorization: Service-oauthtoken $ACCESS_TOKEN" \
  -H 'Accept: application/json; version=2.0'

# Then act on one customer: its zaaid in the cookie
curl "$API_ROOT/monitors" \
  -H "Authorization: Service-oauthtoken $ACCESS_TOKEN" \
  -H 'Accept: application/json; version=2.0' \
  -H 'Cookie: zaaid=700000123'
