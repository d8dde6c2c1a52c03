const { DynamoDBClient, CreateTableCommand, DescribeTableCommand } = require('@aws-sdk/client-dynamodb')
const { DynamoDBDocumentClient } = require('@aws-sdk/lib-dynamodb')
const { Table, Entity, item, string, number, PutItemCommand } = require('dynamodb-toolbox')
const client = new DynamoDBClient({endpoint: process.env.ENDPOINT, region: 'us-east-1', credentials: {accessKeyId: 'x', secretAccessKey: 'x'}})
const name = process.env.TABLE
const table = new Table({name, documentClient: DynamoDBDocumentClient.from(client),
  partitionKey: {name: 'PK', type: 'string'}, sortKey: {name: 'SK', type: 'string'}})
// A site's devices beside its readings, a time after § and the device
// after #: SITE§s0 holds dev§d0… and evt§2026-08-01T00:00:00Z#d0….
const Device = new Entity({name: 'Device', table,
  schema: item({site: string().key(), deviceId: string().key(), model: string()}),
  computeKey: ({site, deviceId}) => ({PK: `SITE§${site}`, SK: `dev§${deviceId}`})})
const Reading = new Entity({name: 'Reading', table,
  schema: item({site: string().key(), at: string().key(), deviceId: string().key(), value: number()}),
  computeKey: ({site, at, deviceId}) => ({PK: `SITE§${site}`, SK: `evt§${at}#${deviceId}`})})
// A log keyed by its time alone, after →.
const Log = new Entity({name: 'Log', table,
  schema: item({site: string().key(), at: string().key(), msg: string()}),
  computeKey: ({site, at}) => ({PK: `LOG→${site}`, SK: `log→${at}`})})
// Configurations with revisions spelt {name}::v{n}, v0 the current copy.
const Config = new Entity({name: 'Config', table,
  schema: item({site: string().key(), cfg: string().key(), version: number().key(), body: string()}),
  computeKey: ({site, cfg, version}) => ({PK: `CFG::${site}`, SK: `${cfg}::v${version}`})})
;(async () => {
  await client.send(new CreateTableCommand({TableName: name, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{AttributeName: 'PK', AttributeType: 'S'}, {AttributeName: 'SK', AttributeType: 'S'}],
    KeySchema: [{AttributeName: 'PK', KeyType: 'HASH'}, {AttributeName: 'SK', KeyType: 'RANGE'}]}))
  while ((await client.send(new DescribeTableCommand({TableName: name}))).Table.TableStatus !== 'ACTIVE') await new Promise(r => setTimeout(r, 50))
  const start = Date.UTC(2026, 7, 1)
  for (let d = 0; d < 5; d++) await Device.build(PutItemCommand).item({site: 's0', deviceId: 'd' + d, model: 'm' + d}).send()
  for (let i = 0; i < 60; i++) await Reading.build(PutItemCommand).item({site: 's0', at: new Date(start + i * 5 * 3600e3).toISOString().replace('.000Z', 'Z'), deviceId: 'd' + (i % 5), value: i}).send()
  for (let i = 0; i < 20; i++) await Log.build(PutItemCommand).item({site: 's0', at: new Date(start + i * 13 * 3600e3).toISOString().replace('.000Z', 'Z'), msg: 'm' + i}).send()
  for (const [cfg, n] of [['net', 3], ['power', 4]]) for (let v = 0; v <= n; v++) await Config.build(PutItemCommand).item({site: 's0', cfg, version: v, body: cfg + (v || n)}).send()
})().catch(e => { console.error(e); process.exit(1) })
