curl -X POST "$API_ROOT/monitor_groups" \
  -H "Authorization: Service-oauthtoken $ACCESS_TOKEN" \
  -H 'Accept: application/json; version=2.0' \
  -H 'Content-Type: application/json;charset=UTF-8' \
  -d '{"display_name": "Payment services",
       "description": "Checkout and billing monitors"}'
