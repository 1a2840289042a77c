curl "$API_ROOT/monitor_type_constants" \
  -H "Authorization: Service-oauthtoken $ACCESS_TOKEN" \
  -H 'Accept: application/json; version=2.0'
