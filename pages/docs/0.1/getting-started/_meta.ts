export default {
  'local-deploy': 'Deploy on one machine',
  'production-deploy': 'Production deployment',
  'docker-development': 'Docker',
  'env-overview': 'Environment variables',
  'local-development': 'Working on Ferry',
  logging: 'Logging',
}
