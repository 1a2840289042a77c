# The monitors of your own account
curl "$API_ROOT/monitors" \
  -H "Authorization: Service-oauthtoken $ACCESS_TOKEN" \
  -H 'Accept: application/json; version=2.0'

# The monitors of a customer of your MSP account
# (or of a business unit of your BU portal account)
curl "$API_ROOT/monitors" \
  -H "Authorization: Service-oauthtoken $ACCESS_TOKEN" \
  -H 'Accept: application/json; version=2.0' \
  -H 'Cookie: zaaid=700000123'
