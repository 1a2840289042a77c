curl "$API_ROOT/monitors/169863000000025001" \
  -H "Authorization: Service-oauthtoken $ACCESS_TOKEN" \
  -H 'Accept: application/json; version=2.0'
