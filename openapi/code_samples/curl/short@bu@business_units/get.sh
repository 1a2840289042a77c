# The business units of your BU portal account
curl "$API_ROOT/short/bu/business_units" \
  -H "Authorization: Service-oauthtoken $ACCESS_TOKEN" \
  -H 'Accept: application/json; version=2.0'

# Then act on one business unit: its zaaid in the cookie
curl "$API_ROOT/monitors" \
  -H "Authorization: Service-oauthtoken $ACCESS_TOKEN" \
  -H 'Accept: application/json; version=2.0' \
  -H 'Cookie: zaaid=800000111'
