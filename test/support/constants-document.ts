/**
 * An independent transcription of 'Monitoring Service REST API: Constants and Enumerated Values'
 * (seeds/001_0f2279669d315196.txt), written from the document line by line, not from the YAML.
 * It is data only; test/unit/constants.test.ts holds the OpenAPI schemas against it.
 *
 * Each enumeration is keyed by its schema name and lists [value, meaning] in the document's order.
 * Where the document gives a code without a meaning (e.g. `Text` for defacement type, the APM
 * attribute codes) the meaning is the code itself; where it gives only a number (check intervals,
 * downtime-rule locations) the meaning states the number with its unit.
 */

export type Value = number | string;
export type Entry = readonly [Value, string];

/** Section of the document → the schema file that holds it → the enumeration schemas in it. */
export const sections: Record<string, { heading: string; enums: string[] }> = {
  reports: {
    heading: 'Reports',
    enums: [
      'ReportType',
      'ScheduledReportStatus',
      'ScheduledReportCriteria',
      'ScheduledReportOperator',
      'CustomReportType',
      'ReportFormat',
      'ReportFrequency',
      'BusinessQuarterMonths',
      'TrendReportSegment',
      'BusyHourReportSegment',
      'BusyHourSegmentType',
      'OutageReportPeriod',
      'MetricAggregation',
      'ReportMetrics',
    ],
  },
  'scheduled-maintenance': {
    heading: 'Scheduled maintenance',
    enums: ['MaintenanceRecurrence', 'MaintenanceStatus', 'DayOfWeek', 'WeekOfMonth', 'MaintenanceEnd', 'Month'],
  },
  periods: { heading: 'Periods and granularity', enums: ['Period', 'UnitOfTime'] },
  sla: { heading: 'SLA', enums: ['SlaType', 'SlaTarget'] },
  notification: {
    heading: 'Notification and alerting',
    enums: [
      'DowntimeDelay',
      'PersistentNotification',
      'AlertingMode',
      'AlertingStatus',
      'SmsProvider',
      'VoiceCallProvider',
      'EmailFormat',
      'ActionRule',
      'AlertType',
      'OutageAndAlarmType',
      'AlertSeverity',
    ],
  },
  users: {
    heading: 'Users and products',
    enums: ['Product', 'ServiceRole', 'CostProductRole', 'StatusPageProductRole', 'JobTitle'],
  },
  status: {
    heading: 'Status and state',
    enums: ['MonitorStatus', 'MonitorState', 'DataCollectionType', 'KnownTimeWindow', 'UptimeButtonTimePeriod'],
  },
  'monitor-types': { heading: 'Monitor types', enums: ['KnownMonitorType'] },
  'check-interval': { heading: 'Check interval', enums: ['CheckInterval', 'SecondaryCheckInterval'] },
  'cloud-discovery': {
    heading: 'Cloud discovery',
    enums: ['DiscoverServiceId', 'DiscoverChildTypeId', 'DiscoverFrequency', 'CloudManagementAction', 'DiscoveryCriteria'],
  },
  'http-monitor': {
    heading: 'HTTP-based monitor settings',
    enums: [
      'KnownHttpMethod',
      'HttpProtocol',
      'SslProtocol',
      'WebsiteType',
      'IpType',
      'BrowserType',
      'RequestContentType',
      'ResponseContentType',
      'HttpAuthenticationMethod',
      'OAuthGrantType',
      'OAuthAuthenticationMethod',
      'SendTokenAs',
      'DefacementType',
      'BrowserTransactionResolution',
      'BrowserName',
    ],
  },
  'dns-monitor': { heading: 'DNS monitor', enums: ['DnsLookupType', 'DnsProtocol', 'TtlOperation', 'DnsKeyFlag'] },
  thresholds: {
    heading: 'Thresholds and units',
    enums: [
      'ThresholdProfileType',
      'ThresholdCondition',
      'TextThresholdCondition',
      'ThresholdStrategy',
      'ThresholdSeverity',
      'AnomalyThreshold',
      'DowntimeRuleLocations',
      'BytesUnit',
      'TimeUnit',
      'BitsPerSecondUnit',
      'GlobalParameterFunction',
    ],
  },
  apm: {
    heading: 'Application performance monitoring',
    enums: [
      'ApmAgentType',
      'ApmResourceType',
      'ApmGeoMapAttribute',
      'ApmWebTransactionAttribute',
      'ApmBackgroundTransactionAttribute',
      'ApmDatabaseOperationAttribute',
      'ApmTransactionType',
      'ApmTransactionAttribute',
      'ApmGraph',
      'ApmTransactionGraph',
      'ApmDatabaseOperationGraph',
      'ApmTraceListAttribute',
    ],
  },
  'it-automation': {
    heading: 'IT automation and monitor groups',
    enums: [
      'AutomationType',
      'AutomationResourceType',
      'ScriptType',
      'OsType',
      'ServiceAction',
      'HypervisorVmAction',
      'WebServerAction',
      'ItAutomationResourceType',
      'MonitorGroupType',
      'MonitorGroupResourceType',
    ],
  },
  'resource-checks': { heading: 'Resource checks', enums: ['FileCheckType', 'DirectoryCheckType'] },
};

// ---------------------------------------------------------------------------------------------
// Monitor types: the document's three sub-groups, an ID with its parenthetical where it has one.
// ---------------------------------------------------------------------------------------------
const WEB_AND_NETWORK = 'Web and network';
const SERVERS_AND_APPS = 'Servers and apps';
const CLOUD_SERVICES = 'Cloud services';

/** [id, parenthetical or null] */
const webAndNetwork: [string, string | null][] = [
  ['URL', 'website'],
  ['HOMEPAGE', 'page speed, browser'],
  ['URL-SEQ', 'web transaction'],
  ['REALBROWSER', 'web transaction, browser'],
  ['RESTAPI', null],
  ['FILEUPLOAD', null],
  ['GRPC', null],
  ['SSL_CERT', null],
  ['PING', null],
  ['PORT', 'custom protocol'],
  ['UDP', null],
  ['DNS', null],
  ['PORT-POP', null],
  ['PORT-SMTP', null],
  ['PORT_FTP', null],
  ['SMTP', 'mail delivery'],
  ['FTP', 'transfer'],
  ['SOAP', null],
  ['SFTP', null],
  ['NETWORKDEVICE', null],
];
const serversAndApps: [string, string | null][] = [
  ['SERVER', null],
  ['MSEXCHANGE', null],
  ['BIZTALKSERVER', null],
  ['PROCSTAT', null],
  ['VCENTER', null],
  ['VENDORESX', null],
  ['VENDORVM', null],
  ['VENDOR365', null],
  // "VEEAM-type and backup-type monitors: VENDOR_ENTERPRISEMANAGER, VENDOR_AZUREAPPLIANCE, VENDOR_COMMANDCENTER"
  ['VENDOR_ENTERPRISEMANAGER', 'VEEAM-type and backup-type monitors'],
  ['VENDOR_AZUREAPPLIANCE', 'VEEAM-type and backup-type monitors'],
  ['VENDOR_COMMANDCENTER', 'VEEAM-type and backup-type monitors'],
];
const cloudServiceIds = `
VENDOR EC2INSTANCE RDSINSTANCE SNSTOPIC DYNAMODBTABLE LOADBALANCER APPLN-LOADBALANCER NETWORK-LOADBALANCER
GATEWAY-LOADBALANCER LAMBDAFUNCTION EC-MEMCACHED EC-MEM-NODE EC-REDIS S3BUCKET S3ENDPOINT S3FOLDER CLOUDFRONT SQS
KINESIS-DATA KINESIS-FIREHOSE KINESIS-ANALYTICS KINESIS-VIDEO EBSENVIRONMENT DIRECTCONNECT VPC-VPN APIGATEWAY-STAGE
APIGATEWAY-RESOURCE APIGATEWAY-ROUTE ECSCLUSTER ECSCLUSTERSERVICE REDSHIFT-CLUSTER REDSHIFT-NODE EFS SES STEPFUNCTION
WAF CLOUDSEARCH KMS R53_HEALTHCHECK R53_RESOLVER R53_HOSTEDZONE R53_RECORDSET ESD ESDNODE VPC_NATGATEWAY EMR WORKSPACE
EC2AUTOSCALING NEPTUNE-CLUSTER NEPTUNE-INSTANCE ACM LIGHTSAIL-INSTANCE LIGHTSAIL-DATABASE LIGHTSAIL-LB EKSCLUSTER
EKSNAMESPACE EKSNODE AMQ AMQTOPIC AMQQUEUE AMQNC STORAGEGATEWAY SGFILE SGVOLUME TRANSITGATEWAY TGWATTACHMENT
DIRECTCONNECTVI DMSTASK DMSINSTANCE FSX FSX-SVM FSX-VOLUME LAMBDA-EDGE GUARD-DUTY INSPECTOR EC2_CWAGENT APPSTREAM
AWSHEALTH APPSYNC EBSVOLUME_AVAIL AWSBATCH AWSBATCH-QUEUE EBS_SNAPSHOT SECRET-MANAGER SECRET-MANAGER-REGIONAL
ELASTIC-IP-ADDRESS VPC_META VPC_REGIONAL VPC_AZ VPC VPC_NI VPC_PROTOCOL VPC_RT VPC_IG VPC_EIG VPC-ENDPOINT
VPC-ENDPOINT-SERVICES MSK_TOPIC MSK_BROKER MSK_CLUSTER MSK_CONNECT MSK_REPLICATOR MSK_SERVERLESS
TRUSTED-ADVISOR-CATEGORY TRUSTED-ADVISOR-CHECKS TGW_FLOW_LOGS TGWATT_FLOW_LOGS GLUE-JOB GLUE-CRAWLER RABBIT_MQ
RABBIT_MQ_QUEUE RABBIT_MQ_NODE DRSREGION DRS-SOURCE-SERVER DRS-RECOVERY-INSTANCE COGNITO-USER-POOL COGNITO-USER
COGNITO-IDP COGNITO-APP-CLIENT COGNITO-ID-POOL CLOUDWATCH-LOGS-META CLOUDWATCH-LOGS-REGION CLOUDWATCH-LOG-GROUP
ELB-TARGETGROUP VALKEY-SERVERLESS VALKEY-CLUSTER VALKEY-CLUSTER-SHARD VALKEY-CLUSTER-NODE ECR-PRIVATE-REPO
ECR-PUBLIC-REPO RDS-CLUSTER REDSHIFT_WORKGROUP REDSHIFT_NAMESPACE REDSHIFT_DATABASE MEMORYDB-CLUSTER
MEMORYDB-CLUSTER-SHARD MEMORYDB-CLUSTER-NODE MEMORYDB-GLOBAL-CLUSTER
`
  .trim()
  .split(/\s+/);
const cloudParentheticals: Record<string, string> = {
  VENDOR: 'cloud services parent',
  VPC_NI: 'used for both subnet and network interface',
};
/** "`GET /api/monitor_type_constants` returns further entries such as CAPACITY, SERVER_CAPACITY and PROBE_CAPACITY." */
export const furtherMonitorTypes = ['CAPACITY', 'SERVER_CAPACITY', 'PROBE_CAPACITY'];
export const FURTHER_MONITOR_TYPE_MEANING = 'further entry returned by GET /api/monitor_type_constants';

export const monitorTypeGroups: Record<string, string[]> = {
  [WEB_AND_NETWORK]: webAndNetwork.map(([id]) => id),
  [SERVERS_AND_APPS]: serversAndApps.map(([id]) => id),
  [CLOUD_SERVICES]: cloudServiceIds,
  'Further entries of GET /api/monitor_type_constants': furtherMonitorTypes,
};

const knownMonitorType: Entry[] = [
  ...webAndNetwork.map(([id, p]): Entry => [id, p ?? WEB_AND_NETWORK]),
  ...serversAndApps.map(([id, p]): Entry => [id, p ?? SERVERS_AND_APPS]),
  ...cloudServiceIds.map((id): Entry => [id, cloudParentheticals[id] ?? CLOUD_SERVICES]),
  ...furtherMonitorTypes.map((id): Entry => [id, FURTHER_MONITOR_TYPE_MEANING]),
];

// ---------------------------------------------------------------------------------------------
// Every enumeration, [value, meaning], in the document's order.
// ---------------------------------------------------------------------------------------------
export const enumerations = {
  // ### Reports
  ReportType: [
    [11, 'Availability Summary'],
    [13, 'Health Trend'],
    [14, 'Busy Hours'],
    [15, 'Top N'],
    [42, 'Bottom N'],
    [16, 'Performance'],
    [17, 'Summary'],
    [18, 'Availability Trend'],
    [19, 'Executive Summary SLA'],
    [21, 'Cloud Guidance'],
    [23, 'Advisor'],
    [25, 'Cloud Inventory'],
    [31, 'Server Resources'],
    [32, 'Server Inventory'],
    [33, 'Hadoop Inventory'],
    [34, 'Monitor Status'],
  ],
  ScheduledReportStatus: [
    [0, 'Active'],
    [5, 'Suspend'],
  ],
  ScheduledReportCriteria: [
    [0, 'Availability'],
    [1, 'Outage Count'],
    [2, 'Outage Duration'],
  ],
  ScheduledReportOperator: [
    [1, '>'],
    [2, '<'],
    [3, '>='],
    [4, '<='],
  ],
  CustomReportType: [
    [1, 'Custom Report'],
    [2, 'Global Benchmark Report'],
  ],
  ReportFormat: [
    [2, 'PDF'],
    [3, 'CSV'],
  ],
  ReportFrequency: [
    [1, 'Daily'],
    [2, 'Weekly'],
    [3, 'Monthly'],
    [4, 'Quarterly'],
  ],
  BusinessQuarterMonths: [
    [0, 'Jan-Apr-Jul-Oct'],
    [1, 'Feb-May-Aug-Nov'],
    [2, 'Mar-Jun-Sep-Dec'],
  ],
  TrendReportSegment: [
    [1, 'Day'],
    [2, 'Week'],
    [3, 'Month'],
  ],
  BusyHourReportSegment: [
    [1, 'Hour of Day'],
    [2, 'Day of Week'],
  ],
  BusyHourSegmentType: [
    [1, 'Hour of the day'],
    [2, 'Day of the week'],
  ],
  OutageReportPeriod: [
    [1, 'one day'],
    [2, 'one week'],
    [5, 'one month'],
    [90, 'three months'],
    [180, 'six months'],
  ],
  MetricAggregation: [
    [0, 'Average'],
    [1, '95th Percentile'],
    [4, 'Maximum'],
    [5, 'Minimum'],
  ],
  ReportMetrics: [
    [1, 'Overall'],
    [2, 'By Day'],
  ],

  // ### Scheduled maintenance
  MaintenanceRecurrence: [
    [1, 'Daily'],
    [2, 'Weekly (By Time)'],
    [8, 'Weekly (By Day)'],
    [3, 'Once'],
    [5, 'Monthly (By Date)'],
    [6, 'Monthly (By Day)'],
    [9, 'Yearly'],
  ],
  MaintenanceStatus: [
    ['I', 'In Progress'],
    ['C', 'Completed'],
    ['V', 'Recurring, runs on the next scheduled cycle (daily, weekly, monthly)'],
  ],
  DayOfWeek: [
    [0, 'Sunday'],
    [1, 'Monday'],
    [2, 'Tuesday'],
    [3, 'Wednesday'],
    [4, 'Thursday'],
    [5, 'Friday'],
    [6, 'Saturday'],
  ],
  WeekOfMonth: [
    [1, 'First'],
    [2, 'Second'],
    [3, 'Third'],
    [4, 'Fourth'],
    [5, 'Last (last or fourth week; supported in scheduled maintenance)'],
  ],
  MaintenanceEnd: [
    [0, 'Never'],
    [1, 'After n times (n executions)'],
    [2, 'On the specified date'],
  ],
  // "Month: 1 to 12 for January to December."
  Month: [
    [1, 'January'],
    [2, 'February'],
    [3, 'March'],
    [4, 'April'],
    [5, 'May'],
    [6, 'June'],
    [7, 'July'],
    [8, 'August'],
    [9, 'September'],
    [10, 'October'],
    [11, 'November'],
    [12, 'December'],
  ],

  // ### Periods and granularity (the Period column; ranges are in periodRanges)
  Period: [
    [0, 'Last 1 hour'],
    [1, 'Last 24 hours'],
    [2, 'Last 7 Days'],
    [3, 'Today'],
    [4, 'Yesterday'],
    [5, 'Last 30 Days'],
    [7, 'Last Month'],
    [8, 'This Year'],
    [9, 'This Quarter'],
    [11, 'This Week'],
    [12, 'Last Week'],
    [13, 'This Month'],
    [17, 'Last 6 hours'],
    [18, 'Last 12 hours'],
    [22, 'Last Quarter'],
    [25, 'Last 3 Months'],
    [50, 'Custom Period'],
    [51, 'Last Poll'],
  ],
  UnitOfTime: [
    [1, 'Raw Data'],
    [2, 'Hourly'],
    [3, 'Daily'],
    [4, 'Weekly'],
    [5, 'Monthly'],
  ],

  // ### SLA
  SlaType: [
    [1, 'Composite'],
    [2, 'Availability'],
    [3, 'Performance'],
  ],
  SlaTarget: [
    [0, 'Greater Than'],
    [1, 'Equal'],
    [2, 'Greater Than or Equal'],
    [3, 'Less Than'],
    [4, 'Less Than or Equal'],
  ],

  // ### Notification and alerting
  DowntimeDelay: [
    [1, 'Notify on First Failure'],
    [2, 'Second'],
    [3, 'Third'],
    [4, 'Fourth'],
    [5, 'Fifth'],
  ],
  PersistentNotification: [
    [-1, 'Do not notify persistently'],
    [1, 'Every error'],
    [2, 'Every second error'],
    [3, 'Every third'],
    [4, 'Every fourth'],
    [5, 'Every fifth'],
  ],
  AlertingMode: [
    [1, 'Email'],
    [2, 'SMS'],
    [3, 'Voice Call'],
    [4, 'IM'],
    [5, 'Twitter'],
  ],
  AlertingStatus: [
    [10, 'Notify Down'],
    [20, 'Notify Trouble'],
    [30, 'Notify Up'],
  ],
  SmsProvider: [
    [1, 'provider A'],
    [2, 'provider B'],
    [4, 'provider C'],
  ],
  VoiceCallProvider: [[1, 'provider C']],
  EmailFormat: [
    [0, 'Text'],
    [1, 'HTML'],
  ],
  ActionRule: [
    [0, 'when monitor is declared Down'],
    [1, 'Up'],
    [2, 'Trouble'],
    [-1, 'when monitor status changes'],
    [20, 'when attribute status changes'],
  ],
  AlertType: [
    [0, 'Down'],
    [2, 'Trouble'],
  ],
  OutageAndAlarmType: [
    [0, 'Down'],
    [2, 'Trouble'],
    [3, 'Critical'],
    [7, 'Maintenance'],
  ],
  AlertSeverity: [
    [0, 'Critical'],
    [1, 'Non-Critical'],
  ],

  // ### Users and products
  Product: [
    [0, 'the service itself'],
    [1, 'status page product'],
    [2, 'cost management product'],
  ],
  ServiceRole: [
    [0, 'No Access'],
    [1, 'Super Administrator'],
    [2, 'Administrator'],
    [3, 'Operator'],
    [4, 'Billing Contact'],
    [5, 'SpokesPerson'],
    [6, 'Hosting Provider'],
    [10, 'Read Only'],
  ],
  CostProductRole: [
    [11, 'Cost Administrator'],
    [12, 'Cost User'],
  ],
  StatusPageProductRole: [
    [21, 'Super Administrator'],
    [22, 'Administrator'],
    [23, 'SpokesPerson'],
    [24, 'Billing Contact'],
    [25, 'Read Only'],
  ],
  JobTitle: [
    [1, 'IT Engineer'],
    [2, 'Cloud Engineer'],
    [3, 'DevOps Engineer'],
    [4, 'Webmaster'],
    [5, 'CEO/CTO'],
    [6, 'Internal IT'],
    [7, 'Others'],
  ],

  // ### Status and state
  MonitorStatus: [
    [0, 'Down'],
    [1, 'Up'],
    [2, 'Trouble'],
    [3, 'Critical'],
    [5, 'Suspended'],
    [7, 'Maintenance'],
    [9, 'Discovery'],
    [10, 'Configuration Error'],
  ],
  MonitorState: [
    [0, 'Active'],
    [5, 'Suspended'],
  ],
  DataCollectionType: [
    [1, 'Normal'],
    [2, 'Secondary Recheck'],
    [3, 'Poll Now'],
    [4, 'Screenshot'],
    [5, 'Hourly Poll'],
    [6, 'Uptime Steroid'],
    [7, 'Up Screenshot'],
    [8, 'Retry'],
    [9, 'Down Recheck'],
    [10, 'Other ISP'],
  ],
  // the literal codes; `SD/dd.mm.yyyy` (a particular date) is the pattern branch of TimeWindow
  KnownTimeWindow: [
    ['H', 'last one hour'],
    ['H3', 'last three hours'],
    ['H6', 'last six hours'],
    ['hD', 'last twelve hours'],
    ['D', 'last one day'],
  ],
  UptimeButtonTimePeriod: [
    [1, 'Last 24 hours'],
    [2, 'Last 7 Days'],
    [5, 'Last 30 Days'],
  ],

  // ### Monitor types
  KnownMonitorType: knownMonitorType,

  // ### Check interval ("Main check interval, in minutes")
  CheckInterval: [
    [1, '1 minute'],
    [3, '3 minutes'],
    [5, '5 minutes'],
    [10, '10 minutes'],
    [15, '15 minutes'],
    [20, '20 minutes'],
    [30, '30 minutes'],
    [60, '60 minutes'],
    [120, '120 minutes'],
    [180, '180 minutes'],
    [360, '360 minutes'],
    [1440, '1440 minutes'],
  ],
  SecondaryCheckInterval: [
    [60000, '1 min'],
    [180000, '3 min'],
    [300000, '5 min'],
    [600000, '10 min'],
    [900000, '15 min'],
    [1800000, '30 min'],
    [3600000, '1 hr'],
    [10800000, '3 hr'],
    [21600000, '6 hr'],
    [86400000, '1 day'],
  ],

  // ### Cloud discovery
  DiscoverServiceId: [
    [1, 'EC2 Instance'],
    [2, 'RDS Instance'],
    [3, 'S3'],
    [4, 'DynamoDB'],
    [5, 'SNS Topic'],
    [6, 'Elastic Load Balancer'],
    [8, 'ElastiCache'],
    [11, 'Lambda Function'],
    [14, 'CloudFront Distribution'],
    [15, 'SQS'],
    [16, 'Elastic Beanstalk'],
    [17, 'Kinesis Data Stream'],
    [18, 'Kinesis Firehose'],
    [19, 'Kinesis Analytics'],
    [20, 'Kinesis Video Stream'],
    [21, 'Direct Connect'],
    [22, 'VPC-VPN'],
    [23, 'API Gateway stage'],
    [25, 'Elastic Container Service'],
    [27, 'Redshift'],
    [29, 'Elastic File System'],
    [30, 'Simple Email Service'],
    [31, 'Step Function State Machine'],
    [32, 'Web Application Firewall'],
    [33, 'CloudSearch Domain'],
    [34, 'Key Management Service'],
    [35, 'Route 53'],
    [39, 'Elasticsearch'],
    [40, 'NAT Gateway'],
    [41, 'Elastic MapReduce'],
    [42, 'WorkSpace'],
    [43, 'EC2 Auto Scaling Group'],
    [45, 'Neptune'],
    [46, 'Certificate Manager'],
    [47, 'Lightsail Instance'],
    [48, 'MQ'],
    [49, 'EKS'],
    [53, 'Lightsail Database'],
    [56, 'Storage Gateway'],
    [57, 'Storage Gateway File Share'],
    [58, 'Storage Gateway Volume'],
    [59, 'Lightsail Load Balancer'],
    [60, 'Guardduty'],
    [61, 'Transit Gateway'],
    [62, 'Direct Connect Virtual Interface'],
    [63, 'DMS Replication Task'],
    [64, 'DMS Replication Instance'],
    [65, 'FSx'],
    [68, 'DocumentDB'],
    [69, 'Lambda@Edge Function'],
    [70, 'Inspector'],
    [75, 'SFTP'],
    [79, 'Systems Manager'],
    [82, 'Health'],
    [83, 'AppSync'],
    [88, 'Elastic IP'],
    [92, 'Batch'],
    [93, 'Batch Queue'],
    [95, 'Secret Manager'],
  ],
  DiscoverChildTypeId: [
    [1, 'EC2 Instance'],
    [2, 'RDS Instance'],
    [3, 'S3 Bucket'],
    [4, 'DynamoDB'],
    [5, 'SNS Topic'],
    [6, 'Classic Load Balancer'],
    [7, 'Application Load Balancer'],
    [8, 'EC Redis Node'],
    [9, 'EC Memcached Cluster'],
    [10, 'EC Memcached Node'],
    [11, 'Lambda Function'],
    [12, 'S3 Object'],
    [13, 'Network Load Balancer'],
    [14, 'CloudFront Distribution'],
    [15, 'SQS'],
    [16, 'Elastic Beanstalk'],
    [17, 'Kinesis Data Stream'],
    [18, 'Kinesis Firehose'],
    [19, 'Kinesis Analytics'],
    [20, 'Kinesis Video Stream'],
    [21, 'Direct Connect'],
    [22, 'VPC-VPN'],
    [23, 'API Gateway stage'],
    [24, 'API Gateway Resource'],
    [25, 'ECS Cluster'],
    [26, 'ECS Cluster Service'],
    [27, 'Redshift Cluster'],
    [28, 'Redshift Node'],
    [29, 'Elastic File System'],
    [30, 'Simple Email Service'],
    [31, 'Step Function State Machine'],
    [32, 'Web Application Firewall'],
    [33, 'CloudSearch Domain'],
    [34, 'Key Management Service'],
    [35, 'Route 53 Health Check'],
    [36, 'Route 53 Hosted Zone'],
    [37, 'Route 53 Resolver'],
    [38, 'Route 53 Hosted Zone Record Set'],
    [39, 'Elasticsearch'],
    [40, 'NAT Gateway'],
    [41, 'Elastic MapReduce'],
    [42, 'WorkSpace'],
    [43, 'EC2 Auto Scaling Group'],
    [44, 'Neptune Instance'],
    [45, 'Neptune Cluster'],
    [46, 'Certificate Manager'],
    [47, 'Lightsail Instance'],
    [48, 'MQ Broker'],
    [49, 'EKS Cluster'],
    [50, 'EKS Namespace'],
    [51, 'MQ Topic'],
    [52, 'MQ Queue'],
    [53, 'Lightsail Database'],
    [54, 'MQ Network Connector'],
    [55, 'EKS Node'],
    [59, 'Lightsail Load Balancer'],
    [69, 'Lambda@Edge Function'],
    [70, 'Inspector'],
    [75, 'SFTP'],
    [80, 'API Gateway Route'],
    [81, 'S3 Folder'],
    [83, 'AppSync'],
    [84, 'VPC'],
    [87, 'EBS Volume'],
    [88, 'Elastic IP'],
    [92, 'Batch'],
    [93, 'Batch Queue'],
    [94, 'EBS Snapshot'],
    [95, 'Secret Manager'],
    [96, 'Secret Manager Regional'],
    [97, 'VPC Region'],
    [98, 'VPC Availability Zone'],
    [99, 'VPC Subnet'],
    [100, 'VPC Network Interface'],
    [101, 'VPC Protocol'],
    [109, 'Virtual Private Cloud'],
  ],
  DiscoverFrequency: [
    [0, 'Fewer Polling'],
    [1, 'Default Polling'],
    [2, 'Never'],
  ],
  CloudManagementAction: [
    [1, 'Start'],
    [2, 'Stop'],
    [3, 'Reboot'],
  ],
  DiscoveryCriteria: [
    [1, 'OR'],
    [2, 'AND'],
  ],

  // ### HTTP-based monitor settings
  KnownHttpMethod: [
    ['P', 'POST'],
    ['G', 'GET'],
    ['H', 'HEAD'],
    ['U', 'PUT'],
    ['D', 'DELETE'],
    ['A', 'PATCH'],
    ['F', 'PROPFIND'],
    ['PROPPATCH', 'PROPPATCH'],
    ['MKCOL', 'MKCOL'],
    ['CONNECT', 'CONNECT'],
    ['OPTIONS', 'OPTIONS'],
    ['TRACE', 'TRACE'],
    ['COPY', 'COPY'],
    ['MOVE', 'MOVE'],
    ['LOCK', 'LOCK'],
    ['UNLOCK', 'UNLOCK'],
  ],
  HttpProtocol: [
    ['H1.1', 'HTTP/1.1'],
    ['H2', 'HTTP/2'],
  ],
  SslProtocol: [
    ['Auto', 'all of the following (SSLv3, TLSv1, TLSv1.1, TLSv1.2, TLSv1.3)'],
    ['SSLv3', 'SSLv3'],
    ['TLSv1', 'TLSv1'],
    ['TLSv1.1', 'TLSv1.1'],
    ['TLSv1.2', 'TLSv1.2'],
    ['TLSv1.3', 'TLSv1.3'],
  ],
  WebsiteType: [
    [1, 'Static'],
    [2, 'Dynamic'],
    [3, 'Flash-Based'],
  ],
  IpType: [
    [0, 'IPv4 only'],
    [1, 'IPv6 only'],
    [2, 'both'],
  ],
  BrowserType: [
    [1, 'first supported browser'],
    [2, 'second supported browser'],
  ],
  RequestContentType: [
    ['F', 'FORM (form-encoded)'],
    ['T', 'TEXT (text)'],
    ['X', 'XML (xml)'],
    ['J', 'JSON (json)'],
  ],
  // "Response content type: `T`, `X`, `J` with the same meanings."
  ResponseContentType: [
    ['T', 'TEXT (text)'],
    ['X', 'XML (xml)'],
    ['J', 'JSON (json)'],
  ],
  HttpAuthenticationMethod: [
    ['B', 'Basic/NTLM'],
    ['O', 'OAuth 2'],
    ['W', 'Web Token'],
    ['A', 'cloud signature'],
  ],
  OAuthGrantType: [
    [1, 'Authorization Code'],
    [2, 'Client Credentials'],
    [3, 'Resource Owner Password Credentials'],
  ],
  OAuthAuthenticationMethod: [
    ['B', 'Basic Authentication'],
    ['P', 'POST Request Body'],
  ],
  // "OAuth send-token-as and web-token send-token-as": one list for both settings
  SendTokenAs: [
    ['H', 'HTTP request headers'],
    ['Q', 'query parameters'],
  ],
  DefacementType: [
    ['Text', 'Text'],
    ['Script', 'Script'],
    ['Anchor', 'Anchor'],
    ['Image', 'Image'],
    ['Link', 'Link'],
    ['IFrame', 'IFrame'],
  ],
  BrowserTransactionResolution: [
    ['1024,768', '1024 x 768'],
    ['1366,768', '1366 x 768'],
    ['1600,900', '1600 x 900'],
    ['1920,1080', '1920 x 1080'],
  ],
  BrowserName: [
    ['BrowserA', 'BrowserA'],
    ['BrowserB', 'BrowserB'],
    ['BrowserC', 'BrowserC'],
    ['BrowserD', 'BrowserD'],
    ['BrowserE', 'BrowserE'],
    ['Other', 'Other'],
  ],

  // ### DNS monitor
  DnsLookupType: [
    [1, 'A'],
    [255, 'ALL'],
    [28, 'AAAA'],
    [2, 'NS'],
    [15, 'MX'],
    [5, 'CNAME'],
    [6, 'SOA'],
    [12, 'PTR'],
    [33, 'SRV'],
    [16, 'TXT'],
    [48, 'DNSKEY'],
    [257, 'CAA'],
    [43, 'DS'],
  ],
  DnsProtocol: [
    [0, 'UDP'],
    [1, 'TCP'],
  ],
  TtlOperation: [
    [1, 'greater than'],
    [2, 'equal to'],
    [3, 'less than'],
  ],
  // from the table: "flg (int; 256 ZSK, 257 KSK)"
  DnsKeyFlag: [
    [256, 'ZSK'],
    [257, 'KSK'],
  ],

  // ### Thresholds and units
  ThresholdProfileType: [
    [1, 'Static'],
    [2, 'AI-based'],
  ],
  ThresholdCondition: [
    [1, '>'],
    [2, '<'],
    [3, '>='],
    [4, '<='],
    [5, '='],
    [6, 'not equal'],
  ],
  TextThresholdCondition: [
    [1, 'Equals'],
    [2, 'Not equals'],
    [3, 'Contains'],
    [4, "Doesn't contain"],
    [5, 'On change'],
  ],
  ThresholdStrategy: [
    [1, 'Poll Count'],
    [2, 'Poll Avg'],
    [3, 'Time Range'],
    [4, 'Avg Time'],
  ],
  ThresholdSeverity: [
    [0, 'Down'],
    [3, 'Critical'],
    [2, 'Trouble'],
  ],
  AnomalyThreshold: [
    [1, 'Confirmed'],
    [2, 'Likely'],
  ],
  // "Downtime rules (number of locations): 1 to 8 locations; 0 all selected locations."
  DowntimeRuleLocations: [
    [1, '1 location'],
    [2, '2 locations'],
    [3, '3 locations'],
    [4, '4 locations'],
    [5, '5 locations'],
    [6, '6 locations'],
    [7, '7 locations'],
    [8, '8 locations'],
    [0, 'all selected locations'],
  ],
  BytesUnit: [
    [1, 'bytes'],
    [2, 'KB'],
    [3, 'MB'],
    [4, 'GB'],
    [5, 'TB'],
  ],
  TimeUnit: [
    [1, 'ms'],
    [2, 'Secs'],
    [3, 'Mins'],
    [4, 'Hrs'],
  ],
  BitsPerSecondUnit: [
    [1, 'bps'],
    [2, 'Kbps'],
    [3, 'Mbps'],
    [4, 'Gbps'],
    [5, 'Tbps'],
  ],
  GlobalParameterFunction: [
    [0, 'current date and time'],
    [1, 'random number by length'],
    [2, 'random number by maximum value'],
    [3, 'time in milliseconds'],
  ],

  // ### Application performance monitoring
  ApmAgentType: [
    ['JAVA', 'JAVA'],
    ['DOTNET', 'DOTNET'],
    ['DOTNET_SERVICE', 'DOTNET_SERVICE'],
    ['DOTNET_DESKTOP', 'DOTNET_DESKTOP'],
    ['DOTNET_AZURE_APP_SERVICE', 'DOTNET_AZURE_APP_SERVICE'],
    ['DOTNET_CORE', 'DOTNET_CORE'],
    ['PHP', 'PHP (Linux)'],
    ['PHP_WINDOWS', 'PHP_WINDOWS'],
    ['RUBY', 'RUBY'],
    ['NODEJS', 'NODEJS'],
  ],
  ApmResourceType: [
    ['app', 'Application'],
    ['ins', 'Instance'],
  ],
  ApmGeoMapAttribute: [
    ['responsetime', 'responsetime'],
    ['apdex', 'apdex'],
    ['errCnt', 'errCnt'],
    ['pageViews', 'pageViews'],
  ],
  // "Web transaction attributes, background transaction attributes, database operation attributes:
  //  avgrt; errors; throughput; totalrt. Web transaction also has apdex."
  ApmWebTransactionAttribute: [
    ['avgrt', 'avgrt'],
    ['errors', 'errors'],
    ['throughput', 'throughput'],
    ['totalrt', 'totalrt'],
    ['apdex', 'apdex'],
  ],
  ApmBackgroundTransactionAttribute: [
    ['avgrt', 'avgrt'],
    ['errors', 'errors'],
    ['throughput', 'throughput'],
    ['totalrt', 'totalrt'],
  ],
  ApmDatabaseOperationAttribute: [
    ['avgrt', 'avgrt'],
    ['errors', 'errors'],
    ['throughput', 'throughput'],
    ['totalrt', 'totalrt'],
  ],
  ApmTransactionType: [
    ['txn', 'web'],
    ['bgtxn', 'background'],
    ['db', 'database operation'],
  ],
  ApmTransactionAttribute: [
    ['apdex', 'apdex (only for txn)'],
    ['avgrt', 'avgrt'],
    ['errors', 'errors'],
    ['throughput', 'throughput'],
    ['totalrt', 'totalrt'],
  ],
  ApmGraph: [
    ['apdex', 'apdex'],
    ['rtandthroughput', 'rtandthroughput'],
    ['components', 'components'],
    ['rtbycomponents', 'rtbycomponents'],
    ['throughput', 'throughput'],
    ['avgrt', 'avgrt'],
  ],
  ApmTransactionGraph: [
    ['rtandthroughput', 'rtandthroughput (txn, bgtxn, db)'],
    ['components', 'components (txn, bgtxn)'],
    ['rtbycomponents', 'rtbycomponents (bgtxn)'],
    ['throughputbycaller', 'throughputbycaller (db)'],
    ['throughput', 'throughput (db)'],
    ['avgrt', 'avgrt (db)'],
  ],
  ApmDatabaseOperationGraph: [
    ['avgrt', 'avgrt'],
    ['rtandthroughput', 'rtandthroughput'],
    ['throughput', 'throughput'],
  ],
  ApmTraceListAttribute: [
    ['avgrt', 'avgrt'],
    ['cpu', 'cpu'],
    ['exe', 'exe'],
    ['ext', 'ext'],
    ['sql', 'sql'],
  ],

  // ### IT automation and monitor groups
  AutomationType: [
    [1, 'Invoke URL'],
    [2, 'Server Script'],
    [3, 'Server Command'],
    [4, 'Windows Service'],
    [5, 'Server Reboot'],
    [6, 'hypervisor VM action'],
    [7, 'web server site action'],
    [8, 'Mark as Maintenance'],
    [9, 'instance start/stop/hibernate/reboot'],
    [10, 'database instance start/stop/reboot/failover'],
    [11, 'Trigger Function'],
    [12, 'Publish to Topic'],
    [13, 'Memcached Node Reboot'],
    [14, 'Memcached Cluster Reboot'],
    [15, 'Redis Node Reboot'],
    [16, 'Send Message to Queue'],
    [17, 'Start/Stop Analytics'],
    [19, 'Beanstalk Actions'],
    [20, 'Invoke Gateway Resource URL'],
    [21, 'Reboot Redshift Cluster'],
    [22, 'Send Email'],
    [23, 'Push Data to Data Stream'],
    [24, 'Execute State Machine'],
    [25, 'Add Step to MapReduce Cluster'],
    [26, 'Workspace Start/Stop/Reboot/Rebuild'],
    [27, 'Reboot Neptune Instance'],
    [28, 'Lightsail Instance Start/Stop/Reboot'],
    [29, 'Reboot MQ Broker'],
    [30, 'Lightsail Database Start/Stop/Reboot'],
    [34, 'Edge Function Actions'],
    [35, 'Start/Stop SFTP Server'],
  ],
  AutomationResourceType: [
    [1, 'Monitor'],
    [2, 'Monitor Group'],
    [4, 'Tags'],
  ],
  ScriptType: [
    [100, 'Batch'],
    [101, 'PowerShell'],
    [102, 'VB script'],
    [200, 'Shell'],
    [201, 'Python'],
    [202, 'Ruby'],
    [203, 'Python3'],
  ],
  OsType: [
    [0, 'Windows'],
    [1, 'Linux'],
  ],
  ServiceAction: [
    [1, 'Start'],
    [2, 'Stop'],
    [3, 'Restart'],
  ],
  HypervisorVmAction: [
    [1, 'Start VM'],
    [2, 'Stop VM'],
    [3, 'Restart VM'],
  ],
  WebServerAction: [
    [1, 'Start Site'],
    [2, 'Stop Site'],
    [3, 'Start App pools'],
    [4, 'Stop App Pools'],
  ],
  ItAutomationResourceType: [
    [0, 'All Monitors'],
    [1, 'Monitor Group'],
    [2, 'Monitor'],
    [3, 'Tags'],
    [4, 'Monitor Type'],
  ],
  MonitorGroupType: [
    [1, 'All types'],
    [2, 'Web'],
    [3, 'Server'],
    [4, 'Database'],
    [5, 'Synthetic Transaction'],
    [6, 'Web API'],
    [7, 'APM Insight'],
    [8, 'Network Devices'],
    [9, 'RUM'],
  ],
  MonitorGroupResourceType: [
    [0, 'Monitor Group'],
    [1, 'Subgroup'],
  ],

  // ### Resource checks
  FileCheckType: [
    [2001, 'Access'],
    [2002, 'Permission'],
    [2003, 'Size'],
    [2004, 'Modify'],
    [2005, 'Content'],
  ],
  DirectoryCheckType: [
    [3001, 'Access'],
    [3002, 'Permission'],
    [3003, 'Size'],
    [3004, 'File'],
    [3005, 'SubDirectory'],
  ],
} satisfies Record<string, Entry[]>;

/** Open sets: the closed "known" enum and the open wrapper around it. */
export const openSets: Record<string, string> = {
  MonitorType: 'KnownMonitorType',
  HttpMethod: 'KnownHttpMethod',
  TimeWindow: 'KnownTimeWindow',
};

// ---------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------

/** Period table, Range column. */
export const periodRanges: Record<number, string> = {
  0: '60 minutes ago until now',
  1: '24 hours ago until now',
  2: '12 am of the day 7 days back until 12 am of the current day',
  3: '12 am of the current day until now',
  4: '12 am of the previous day until 12 am of the current day',
  5: '12 am of the day 30 days back until 12 am of the current day',
  7: '12 am of the 1st of the previous month until 12 am of the 1st of the current month',
  8: '12 am of January 1st until 12 am of the current day',
  9: "12 am of the quarter's first day until 12 am of the current day",
  11: '12 am of Sunday of the current week until 12 am of the current day',
  12: '12 am of Sunday of the previous week until 12 am of Sunday of the current week',
  13: '12 am of the 1st until 12 am of the current day',
  17: '6 hours ago until now',
  18: '12 hours ago until now',
  22: "the previous quarter, ending 12 am of the current quarter's first day",
  25: 'the 3 full months before the current month',
  50: 'start and end dates chosen by the user',
  51: 'last polled values; only for Top N and Bottom N reports and certain widgets',
};

/** "Granularities supported per period ID", one entry per table row: [period IDs, unit-of-time values]. */
export const granularityRows: [number[], number[]][] = [
  [
    [0, 1, 3, 4, 17, 18],
    [1, 2],
  ],
  [
    [2, 11, 12],
    [1, 2, 3],
  ],
  [
    [5, 13],
    [1, 2, 3, 4],
  ],
  [[7], [2, 3, 4]],
  [
    [8, 9, 22, 25],
    [2, 3, 4, 5],
  ],
  [[51], [1]],
];

/** "For a custom period the granularity is derived from the start and end dates. Raw granularity applies only if
 *  both dates lie within the last 30 days." */
export const customPeriod = { period: 50, rawUnitOfTime: 1, rawWithinLastDays: 30 };

/** Check interval table, one entry per row: [intervals in minutes, unsupported monitor types]. */
export const unsupportedRows: [number[], string[]][] = [
  [[1], ['URL-SEQ', 'REALBROWSER', 'SMTP', 'HOMEPAGE', 'FTP']],
  [[3], ['URL-SEQ', 'REALBROWSER', 'SMTP', 'HOMEPAGE', 'FTP']],
  [[5], ['SMTP', 'HOMEPAGE']],
  [[10], ['SMTP', 'HOMEPAGE']],
  [[15, 20, 30, 60, 120, 180, 360, 1440], []],
];

/** DNS search config fields per lookup type, one entry per table row ("string unless marked int").
 *  Every lookup type also carries `ttlo` (int) and `ttl` (int); ALL has no row. */
export type FieldType = 'int' | 'string';
export const dnsFieldRows: [string[], [string, FieldType][]][] = [
  [['A', 'AAAA'], [['addr', 'string']]],
  [['NS', 'CNAME', 'PTR'], [['target', 'string']]],
  [
    ['MX'],
    [
      ['target', 'string'],
      ['priority', 'int'],
    ],
  ],
  [
    ['SRV'],
    [
      ['port', 'int'],
      ['target', 'string'],
      ['priority', 'int'],
      ['wt', 'int'],
    ],
  ],
  [['TXT'], [['rcvd', 'string']]],
  [
    ['SOA'],
    [
      ['pns', 'string'],
      ['admin', 'string'],
      ['serial', 'int'],
      ['rff', 'int'],
      ['rtf', 'int'],
      ['expt', 'int'],
      ['mttl', 'int'],
    ],
  ],
  [
    ['DNSKEY'],
    [
      ['flg', 'int'],
      ['prtcl', 'int'],
      ['kalg', 'int'],
      ['kid', 'int'],
      ['key', 'string'],
    ],
  ],
  [
    ['CAA'],
    [
      ['tag', 'string'],
      ['certauth', 'string'],
      ['flg', 'int'],
    ],
  ],
  [
    ['DS'],
    [
      ['kid', 'int'],
      ['kalg', 'int'],
      ['halg', 'int'],
      ['hash', 'string'],
    ],
  ],
];
export const dnsCommonFields: [string, FieldType][] = [
  ['ttlo', 'int'],
  ['ttl', 'int'],
];

/** "Browser version: 83 for type 1; 88 for type 2." */
export const browserVersions: Record<number, number> = { 1: 83, 2: 88 };

/** "Graph for a particular transaction": graph → transaction types. */
export const transactionGraphTypes: Record<string, string[]> = {
  rtandthroughput: ['txn', 'bgtxn', 'db'],
  components: ['txn', 'bgtxn'],
  rtbycomponents: ['bgtxn'],
  throughputbycaller: ['db'],
  throughput: ['db'],
  avgrt: ['db'],
};

/** Core document section 5.2 (roles), keyed by the constants document's role IDs. */
export const rolePermissions: Record<number, string> = {
  1: 'Full control of the account.', // "Super Admin"
  2: 'Write access to most modules, except billing and user access.',
  3: 'Read-only access to most modules. Write access to scheduling a maintenance.',
  10: 'Read-only access to the account.',
  4: 'Access only to billing modules (upgrade, renewals).',
  5: 'Read access to all modules. May post public comments through dashboards.',
  6: 'May configure scheduled maintenance.',
  0: 'No access to the web client or the API.',
};

/** Time window: a particular date "SD/dd.mm.yyyy". */
export const timeWindowDates = {
  valid: ['SD/21.11.2026', 'SD/01.01.2025', 'SD/31.12.1999'],
  invalid: ['SD/2026-11-21', 'SD/32.01.2026', 'SD/21.13.2026', 'SD/1.1.2026', 'X', 'H12'],
};
