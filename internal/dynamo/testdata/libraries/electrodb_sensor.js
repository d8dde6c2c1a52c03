// A sensor's partition as ElectroDB writes it: its readings keyed by
// epoch milliseconds ($sensor#reading_1#at_<ms>) beside its alarms keyed
// by epoch seconds ($sensor#alarm_1#raiseds_<s>) and the sensor itself
// ($sensor#sensor_1): times in two forms, one a prefix, in one partition.
const { DynamoDBClient, CreateTableCommand, DescribeTableCommand } = require('@aws-sdk/client-dynamodb')
const { Entity } = require('electrodb')
const client = new DynamoDBClient({endpoint: process.env.ENDPOINT, region: 'us-east-1', credentials: {accessKeyId: 'x', secretAccessKey: 'x'}})
const table = process.env.TABLE
const Reading = new Entity({model: {entity: 'reading', version: '1', service: 'iot'},
  attributes: {sensor: {type: 'string'}, at: {type: 'number'}, value: {type: 'number'}},
  indexes: {byTime: {collection: 'sensor', pk: {field: 'pk', composite: ['sensor']}, sk: {field: 'sk', composite: ['at']}}}}, {table, client})
const Alarm = new Entity({model: {entity: 'alarm', version: '1', service: 'iot'},
  attributes: {sensor: {type: 'string'}, raisedS: {type: 'number'}, level: {type: ['low', 'high']}},
  indexes: {byTime: {collection: 'sensor', pk: {field: 'pk', composite: ['sensor']}, sk: {field: 'sk', composite: ['raisedS']}}}}, {table, client})
const Sensor = new Entity({model: {entity: 'sensor', version: '1', service: 'iot'},
  attributes: {sensor: {type: 'string'}, site: {type: 'string'}},
  indexes: {byTime: {collection: 'sensor', pk: {field: 'pk', composite: ['sensor']}, sk: {field: 'sk', composite: []}}}}, {table, client})
;(async () => {
  await client.send(new CreateTableCommand({TableName: table, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{AttributeName: 'pk', AttributeType: 'S'}, {AttributeName: 'sk', AttributeType: 'S'}],
    KeySchema: [{AttributeName: 'pk', KeyType: 'HASH'}, {AttributeName: 'sk', KeyType: 'RANGE'}]}))
  while ((await client.send(new DescribeTableCommand({TableName: table}))).Table.TableStatus !== 'ACTIVE') await new Promise(r => setTimeout(r, 50))
  await Sensor.put({sensor: 'sn0', site: 'roof'}).go()
  // Sixty readings, one every 29 hours from 2020-09-01 (25 in 2020-10),
  // and twenty alarms, one every 4 days and 7 hours from 2020-09-03.
  const start = Date.UTC(2020, 8, 1)
  for (let i = 0; i < 60; i++) await Reading.put({sensor: 'sn0', at: start + i * 29 * 3600e3 + 123, value: i}).go()
  for (let i = 0; i < 20; i++) await Alarm.put({sensor: 'sn0', raisedS: Math.floor((start + 2 * 86400e3 + i * 103 * 3600e3) / 1000), level: i % 2 ? 'low' : 'high'}).go()
})().catch(e => { console.error(e); process.exit(1) })
